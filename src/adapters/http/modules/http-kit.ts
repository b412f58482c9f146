/**
 * The HTTP surface a product module's routes build on: the route shape, the request's principal and
 * origin, the role guard with the contract's 403, the JSON body and its validation, the JSON answer.
 * A module's HTTP adapter imports only this file (and express or class-validator themselves);
 * .dependency-cruiser.js refuses the rest of src/adapters/http.
 */
export type { RouteDefinition } from '../route-group';
export type { NodeHandler, NodeRequest, NodeResponse } from '../node-handler';
export { principalOf } from '../request-principal';
export { requireRole } from '../require-role';
export { originOf } from '../request-origin';
export { jsonBody } from '../json-body';
export { validateBody } from '../validate-body';
export { sendJson } from '../send-json';
export { OptionalField } from '../dto/optional-field';
