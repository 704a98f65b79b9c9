#!/usr/bin/env bash
# Regenerates the spoken fixtures for tests/test_voice_stt.py (16 kHz mono 16-bit WAV).
# Needs the Debian package espeak-ng (apt-get install -y espeak-ng) and numpy (the venv);
# espeak-ng writes 22.05 kHz; the snippet below resamples it to 16 kHz. The voice en-us+f2
# at 130 words a minute was the one pocketsphinx transcribed best of six tried.
set -euo pipefail
cd "$(dirname "$0")"
PY="${PYTHON:-../../../.venv/bin/python}"

speak() {  # speak NAME "TEXT"
    espeak-ng -v en-us+f2 -s 130 -w "$1.raw.wav" "$2"
    "$PY" - "$1.raw.wav" "$1.wav" <<'PYEOF'
import sys, wave
import numpy as np
src, dst = sys.argv[1], sys.argv[2]
with wave.open(src, "rb") as w:
    rate = w.getframerate()
    x = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(np.float64)
n = int(round(len(x) * 16000 / rate))
y = np.interp(np.arange(n) * rate / 16000, np.arange(len(x)), x)  # espeak has little energy above 8 kHz
with wave.open(dst, "wb") as w:
    w.setnchannels(1)
    w.setsampwidth(2)
    w.setframerate(16000)
    w.writeframes(np.clip(np.round(y), -32768, 32767).astype("<i2").tobytes())
PYEOF
    rm -f "$1.raw.wav"
    printf '%s\n' "$2" > "$1.txt"
}

speak sarah "my name is Sarah and I work as a nurse"
speak tom "I live in Boston and my dog is called Max"
speak anna "Anna likes to play the guitar on Sunday"
