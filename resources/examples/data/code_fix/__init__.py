"""Code-fix example data: the task spec, a buggy starter, and the test script used as verifier."""
