// Request validation lives with the schemas (src/api/validation.ts); routes import it from here.
export { validate } from '../api/validation.js';
