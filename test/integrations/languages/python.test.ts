import { describeLanguage, findPython } from './language-check.js';
import { PYTHON } from './language-suites.js';

// fixtures/integrations/python: requests with urllib3's Retry, tested with pytest. The wrong
// backend sends no caller_id and resends every error status; urllib3's Retry, moreover, waits
// Retry-After alone, with no backoff or jitter on top (JitteredRetry in correct.py adds them).
const python = findPython();

describeLanguage(PYTHON, {
  present: python !== undefined,
  program: python,
  env: { PYTHONDONTWRITEBYTECODE: '1' },
});
