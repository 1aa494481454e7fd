// A module of its own so the `errors` namespace loads on demand without the rest of the contracts.
export { ERROR_MESSAGES } from '@aiedu/contracts';
