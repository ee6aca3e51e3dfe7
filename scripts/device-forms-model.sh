#!/bin/sh
# Runs many random sequences of the device-forms model test (tests/e2e/device-forms-model.spec.ts) on a phone,
# with a new seed each time: `sh scripts/device-forms-model.sh [runs]` (50 by default). A failure prints the
# values that replay it alone. Needs a build (npm run build).
set -e
DEVICE_FORMS_SEED=${DEVICE_FORMS_SEED:-random} DEVICE_FORMS_RUNS=${1:-50} \
  exec npx playwright test tests/e2e/device-forms-model.spec.ts --project=phone --workers=1
