"""What outlasts a table: its result kept for good (``results``), the players' ratings
derived from all kept results (``ratings``, brought up to date by ``keeping``), and the
``/stats`` command that shows them (``command``)."""
