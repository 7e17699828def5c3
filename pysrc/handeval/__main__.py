import sys

from handeval.cli import main

sys.exit(main())
