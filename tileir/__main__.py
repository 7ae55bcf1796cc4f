"""``python -m tileir``: the command line."""

import sys

from tileir.cli.main import main

sys.exit(main())
