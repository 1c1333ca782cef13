"""The platform-free user interface: the message model, the presenter that turns a table
into messages, markup, choice blocks and their layout, signed button tokens."""
