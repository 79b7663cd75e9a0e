#!/bin/sh
# A certificate the tablets on a local network trust, for the kiosk's own HTTPS (TLS_CERT, TLS_KEY):
# a small certificate authority of your own, made once (ca.crt, which each tablet installs, and
# ca.key, which never leaves this folder), and a certificate for the server signed by it, naming
# every name and address the tablets use. Run it again with other names for a new server
# certificate from the same authority. docs/deploying.md says how to install ca.crt on an iPad,
# an Android tablet and a Windows PC.
#
#   sh scripts/make-certificate.sh FOLDER NAME-OR-ADDRESS...
#   sh scripts/make-certificate.sh /etc/voice-kiosk/tls kiosk.lan 192.168.1.20
#
# Makes FOLDER/ca.crt, FOLDER/ca.key (once), FOLDER/server.crt and FOLDER/server.key. The server
# certificate lasts 825 days (the most an iPad accepts) and the authority 10 years.
set -eu

if [ "$#" -lt 2 ]; then
  echo "usage: sh scripts/make-certificate.sh FOLDER NAME-OR-ADDRESS... (e.g. certs kiosk.lan 192.168.1.20)" >&2
  exit 2
fi
dir=$1
shift
mkdir -p "$dir"
umask 077

# The names and addresses, as subjectAltName lists them: an address (with dots or colons, digits
# and hex only) as IP, anything else as DNS.
san=""
for name in "$@"; do
  case "$name" in
    *[!0-9A-Fa-f.:]* | "") kind=DNS ;;
    *.*.*.* | *:*) kind=IP ;;
    *) kind=DNS ;;
  esac
  san="${san:+$san,}$kind:$name"
done

if [ ! -f "$dir/ca.key" ]; then
  openssl req -x509 -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -sha256 -days 3650 \
    -subj "/CN=voice-kiosk local CA $(date +%Y-%m-%d)" \
    -addext "basicConstraints=critical,CA:TRUE,pathlen:0" \
    -addext "keyUsage=critical,keyCertSign,cRLSign" \
    -keyout "$dir/ca.key" -out "$dir/ca.crt" 2>/dev/null
  echo "Made a certificate authority: $dir/ca.crt (install it on each tablet) and $dir/ca.key (keep it here)."
fi

extensions="$dir/server.ext"
cat > "$extensions" <<EOF
basicConstraints=critical,CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=serverAuth
subjectAltName=$san
EOF
openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -sha256 -subj "/CN=$1" \
  -keyout "$dir/server.key" -out "$dir/server.csr" 2>/dev/null
openssl x509 -req -sha256 -days 825 -in "$dir/server.csr" -CA "$dir/ca.crt" -CAkey "$dir/ca.key" \
  -CAcreateserial -extfile "$extensions" -out "$dir/server.crt" 2>/dev/null
rm -f "$dir/server.csr" "$extensions"
chmod 644 "$dir/ca.crt" "$dir/server.crt"
echo "Made $dir/server.crt and $dir/server.key for $san."
echo "Start the server with TLS_CERT=$dir/server.crt TLS_KEY=$dir/server.key"
