export { api, type CallOptions, configureApi, getApiBaseUrl, type WithHeaders } from './client';
export { ApiError, errorMessage, isStatus } from './errors';
export {
  forgetPrimedResponses,
  PRIMED_RESPONSES_SELECTOR,
  type PrimedResponse,
  type PrimedResponses,
  primeResponses,
  readPrimedResponses,
  requestKey,
} from './primed';
export { type StepUpHandler, setStepUpHandler } from './step-up';
export {
  readToken,
  TOKEN_CHANGED_EVENT,
  TOKEN_KEY,
  type TokenChangedDetail,
  type TokenChangeReason,
  writeToken,
} from './token-store';
