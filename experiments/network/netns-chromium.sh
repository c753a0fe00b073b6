#!/bin/sh
# Chromium inside the study's browser namespace (SHAPING=netns); Playwright drives it over a pipe.
exec ip netns exec "${RTL_NETNS:-rtl-lab}-browser" "${CHROMIUM_PATH:-/usr/bin/chromium}" "$@"
