// The OpenAPI document the server serves at GET /api/v1/openapi.json, for `vtr openapi` to print
// without starting a server (the CLI reaches the server's modules only through the top level).
export { openApiDocument } from './server/openapi.js';
