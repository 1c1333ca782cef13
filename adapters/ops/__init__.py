"""The operator's side of a running bot: its figures for Prometheus (``metrics``), the
checks that say whether it can serve (``health``) and the HTTP endpoints that show both
(``server``: ``/healthz``, ``/readyz``, ``/metrics``), served beside the platforms when
``CAMPFIRE_OPS_LISTEN`` is set (``adapters.edge.settings.OpsEnv``)."""
