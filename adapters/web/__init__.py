"""The table in the browser (issue 25): who may open a table's page, and, later, the
page itself. Platform-free: a platform proves who a viewer is in its own module
(Telegram's Mini App init data: ``adapters.telegram.mini_app``), and a signed link
(``links``) serves Discord and the console."""
