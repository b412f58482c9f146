/**
 * The HTTP surface a product module's routes build on: the route declaration (method, path, group,
 * minimum role, body and query DTOs, handler) and its answer, and the decorators its DTOs may use
 * beside class-validator's own (`Described` gives a field's words in the API reference, whose request
 * schemas are derived from the DTOs; `RequestShapes` says which DTO each schema comes from). A
 * module's HTTP adapter imports only this file (and class-validator itself); .dependency-cruiser.js
 * refuses the rest of src/adapters/http.
 */
export { json, route, type Answer, type Route, type RouteRequest } from '../routes/route';
export { OptionalField } from '../body/dto/optional-field';
export { VisibleText } from '../body/dto/visible-text';
export { Described } from '../body/dto/described';
export type { RequestShapes } from '../docs/request-schemas';
