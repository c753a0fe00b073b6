#!/usr/bin/env bash
# Makes the study server's TLS key and self-signed certificate for localhost, once, into a folder
# that is never committed (default tls/): localhost.p12 (the PKCS #12 key store the server's TLS
# connectors read) and localhost.pem (the certificate, whose public key the browser is launched
# to trust: common/browsers/chromium.js). A certificate that expires within a day is made anew.
# Needs the JDK's keytool. Usage: scripts/tls-key.sh [folder, relative to the repository]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

dir=${1:-tls}
store="$dir/localhost.p12"
cert="$dir/localhost.pem"
# The server's default (server.tls.keyStorePassword): a key made here, for this machine's localhost.
password=${TLS_KEY_STORE_PASSWORD:-response-time-lab}
# Days the certificate is valid: under 398, the longest a browser accepts for a server certificate.
days=397

fresh() {
  [ -f "$store" ] && [ -f "$cert" ] || return 1
  # openssl, where there is one, says whether the certificate still holds for a day.
  ! command -v openssl >/dev/null || openssl x509 -checkend 86400 -noout -in "$cert" >/dev/null
}
fresh && exit 0

command -v keytool >/dev/null || { echo "error: keytool (the JDK's) is needed to make the TLS key" >&2; exit 1; }
mkdir -p "$dir"
rm -f "$store" "$cert"
keytool -genkeypair -alias localhost -keyalg EC -groupname secp256r1 -sigalg SHA256withECDSA \
  -dname CN=localhost -ext SAN=dns:localhost,ip:127.0.0.1 -ext KeyUsage=digitalSignature \
  -ext ExtendedKeyUsage=serverAuth -validity "$days" \
  -keystore "$store" -storetype PKCS12 -storepass "$password" -keypass "$password" >/dev/null 2>&1
chmod 600 "$store"
keytool -exportcert -rfc -alias localhost -keystore "$store" -storepass "$password" -file "$cert" >/dev/null 2>&1
echo "Made the TLS key and certificate for localhost in $dir/"
