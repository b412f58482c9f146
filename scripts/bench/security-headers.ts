/**
 * Security headers: helmet's middleware on every request, or the same values as constants set in one
 * loop (what src/adapters/http/middleware/security-headers.ts does). Both run on a real ServerResponse, many
 * times, alternated in one process; prints nanoseconds per response and the ratio.
 *
 *   npx tsx scripts/bench/security-headers.ts
 */
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import helmet from 'helmet';
import { securityHeaders } from '../../src/adapters/http/middleware/security-headers';
import { API_HELMET_OPTIONS } from '../../test/support/helmet-options';
import { median } from './stats';

type Middleware = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

const ROUNDS = 9;
const PER_ROUND = 200_000;

function timePerResponse(middleware: Middleware): number {
  const req = new IncomingMessage(new Socket());
  const started = process.hrtime.bigint();
  for (let i = 0; i < PER_ROUND; i += 1) middleware(req, new ServerResponse(req), () => undefined);
  return Number(process.hrtime.bigint() - started) / PER_ROUND;
}

const helmetMiddleware = helmet(API_HELMET_OPTIONS) as unknown as Middleware;
// helmet has no Cache-Control: set after it, as the service would have to.
const withHelmet: Middleware = (req, res, next) => helmetMiddleware(req, res, () => {
  res.setHeader('Cache-Control', 'no-store');
  next();
});
const constants = securityHeaders() as unknown as Middleware;
const bare: Middleware = (_req, _res, next) => next(); // the ServerResponse itself, for reference
const figures = { bare: [] as number[], helmet: [] as number[], constants: [] as number[] };
for (let round = 0; round < ROUNDS; round += 1) {
  figures.bare.push(timePerResponse(bare));
  figures.helmet.push(timePerResponse(withHelmet));
  figures.constants.push(timePerResponse(constants));
}
const [bareNs, helmetNs, constantNs] = [median(figures.bare), median(figures.helmet), median(figures.constants)];
console.log(`per response, medians of ${ROUNDS} rounds of ${PER_ROUND}:`);
console.log(`  new ServerResponse alone   ${bareNs.toFixed(0)} ns`);
console.log(`  + helmet middleware        ${(helmetNs - bareNs).toFixed(0)} ns`);
console.log(`  + constants (one loop)     ${(constantNs - bareNs).toFixed(0)} ns`);
console.log(`  helmet / constants         ×${((helmetNs - bareNs) / (constantNs - bareNs)).toFixed(2)}`);
