#!/bin/sh
# Chromium inside the study's network namespace (SHAPING=netns); Playwright drives it over a pipe.
exec ip netns exec "${RTL_NETNS:-rtl-lab}" "${CHROMIUM_PATH:-/usr/bin/chromium}" "$@"
