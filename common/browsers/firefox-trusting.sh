#!/bin/sh
# Firefox as Playwright launches it (its executablePath), with the study server's TLS certificate
# trusted in the profile Playwright made for this launch: before Firefox starts, the certificate
# goes into that profile's own NSS database (`certutil`, Debian's libnss3-tools) as a trust anchor
# for TLS servers. Nothing outside the profile changes, no certificate error is ignored, and a
# page over TLS is a secure, cross-origin-isolated context (docs/protocols.md).
# Without the certificate (the set-up has made none) Firefox starts as it is: cleartext only.
# FIREFOX_PATH names the Firefox to run (default Debian's firefox-esr).
set -eu

firefox=${FIREFOX_PATH:-/usr/bin/firefox-esr}
certificate=$(dirname "$0")/../../tls/localhost.pem

profile=
previous=
for argument in "$@"; do
  [ "$previous" = --profile ] && profile=$argument
  previous=$argument
done

if [ -n "$profile" ] && [ -f "$certificate" ]; then
  if ! command -v certutil >/dev/null; then
    echo "firefox-trusting: certutil is missing (Debian: apt-get install libnss3-tools);" \
      "Firefox will not trust the study server's TLS certificate" >&2
  else
    [ -f "$profile/cert9.db" ] || certutil -N -d "sql:$profile" --empty-password
    certutil -A -d "sql:$profile" -n "Response Time Lab localhost" -t "C,," -i "$certificate"
  fi
fi
exec "$firefox" "$@"
