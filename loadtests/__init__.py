"""Load tests and benchmarks of conversation state: Locust users, ``loadtests run``, ``bench``.

- ``conversation_user``, ``store_user``, ``crypto_user``: Locust files (HTTP journeys, in-process
  save / restore on a store, encryption only); ``ceiling_user``: signed-in pings, the HTTP
  ceiling the conversation runs are divided by.
- ``bench``: each stage of save and restore next to raw baselines, at several state sizes.
- ``scale``: save, restore and list-page latency as one owner's stored conversations grow;
  ``store_targets``: the temporary stores it and ``writers`` measure on.
- ``runner``: headless Locust runs with summary.json, plots and thresholds; ``target`` (the server
  a run measures: the remote gate, what it says of itself), ``identities`` (the users' bearer
  tokens), ``preflight`` (what a run checks before it starts anything).
- ``histograms`` / ``locust_support``: mergeable microsecond histograms across Locust workers.
"""
