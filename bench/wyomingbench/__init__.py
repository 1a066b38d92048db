"""ears as a Wyoming wake service beside wyoming-openwakeword (make bench-wyoming):
the corpus, the servers, one timed session, the phases, the report and the memory targets, by role;
bench/wyoming_bench.py runs them."""
