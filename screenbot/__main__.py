import sys

try:
    from .cli import main
except KeyboardInterrupt:  # Ctrl-C while the libraries load (a second or two): no traceback
    print("screenbot: interrupted", file=sys.stderr)
    raise SystemExit(130) from None

raise SystemExit(main())
