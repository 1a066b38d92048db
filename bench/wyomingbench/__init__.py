"""ears as a Wyoming wake service beside wyoming-openwakeword (make bench-wyoming):
the corpus, the servers, one timed session, the phases and the report, by role;
bench/wyoming_bench.py runs them."""
