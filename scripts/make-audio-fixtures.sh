#!/usr/bin/env bash
# Remakes the audio fixtures in tests/fixtures/audio from tests/fixtures/audio/fixtures.json (all of
# them, or those named: bash scripts/make-audio-fixtures.sh clinic-de).
# Needs espeak-ng, sox and pocketsphinx (apt-get install espeak-ng sox pocketsphinx pocketsphinx-en-us
# pocketsphinx-testdata); the work is in make-audio-fixtures.ts.
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in espeak-ng sox soxi pocketsphinx_continuous; do
  command -v "$tool" >/dev/null || { echo "make-audio-fixtures: $tool is missing (apt-get install espeak-ng sox pocketsphinx pocketsphinx-en-us pocketsphinx-testdata)" >&2; exit 1; }
done
exec npx tsx scripts/make-audio-fixtures.ts "$@"
