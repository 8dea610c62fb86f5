"""Run bundles: one file holding a run — its events, the workflow version it ran, its recording —
that another Triadic imports, replays and forks (`triadic export RUN -o FILE`, `triadic import FILE`).

`export_run(store, run_id, path)` writes one (`write.py`); `read_bundle(path)` reads and checks one
without touching any store, and `import_bundle(store, path)` adds its run to a store in one
transaction (`read.py`); the format, its limits and `BundleError` are in `format.py`. Engine only.
"""

from engine.bundle.format import BUNDLE_SUFFIX, FORMAT_NAME, FORMAT_VERSION, BundleError
from engine.bundle.read import Bundle, import_bundle, read_bundle
from engine.bundle.write import export_run

__all__ = [
    "BUNDLE_SUFFIX",
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "Bundle",
    "BundleError",
    "export_run",
    "import_bundle",
    "read_bundle",
]
