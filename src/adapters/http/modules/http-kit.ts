/**
 * The HTTP surface a product module's routes build on: the route shape, the request's principal and
 * origin, the role guard with the contract's 403, the JSON body and its validation (with the
 * visible-text rule for names people read), the JSON answer.
 * A module's HTTP adapter imports only this file (and express or class-validator themselves);
 * .dependency-cruiser.js refuses the rest of src/adapters/http.
 */
export type { RouteDefinition } from '../routes/route-group';
export type { NodeHandler, NodeRequest, NodeResponse } from '../fast-path/node-handler';
export { principalOf } from '../authentication/request-principal';
export { requireRole } from '../authentication/require-role';
export { originOf } from '../middleware/request-origin';
export { jsonBody } from '../body/json-body';
export { validateBody } from '../body/validate-body';
export { sendJson } from '../fast-path/send-json';
export { OptionalField } from '../body/dto/optional-field';
export { VisibleText } from '../body/dto/visible-text';
