/**
 * The HTTP surface a product module's routes build on: the route declaration (method, path, group,
 * minimum role, body and query DTOs, handler) and its answer, and the decorators its DTOs may use
 * beside class-validator's own. A module's HTTP adapter imports only this file (and class-validator
 * itself); .dependency-cruiser.js refuses the rest of src/adapters/http.
 */
export { json, route, type Answer, type Route, type RouteRequest } from '../routes/route';
export { OptionalField } from '../body/dto/optional-field';
export { VisibleText } from '../body/dto/visible-text';
