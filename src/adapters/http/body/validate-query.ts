import type { RequestHandler, Response } from 'express';
import { HttpError } from '../errors/http-error';
import { shownName, validatedInstance } from './validate-body';

const KEY = 'query';

/**
 * The query string's counterpart of validateBody. A parameter given twice arrives as an array and
 * is refused by name rather than one copy picked silently. Express 5's req.query is read-only, so
 * the validated instance is kept in res.locals and read back with queryOf.
 */
export function validateQuery<T extends object>(dto: new () => T): RequestHandler {
  return async (req, res, next) => {
    const raw = req.query as Record<string, unknown>;
    for (const [name, value] of Object.entries(raw)) {
      if (typeof value !== 'string') {
        const field = shownName(name);
        throw new HttpError(400, `${field} must be given once`, [{ field, message: `${field} must be given once` }]);
      }
    }
    res.locals[KEY] = await validatedInstance(dto, { ...raw });
    next();
  };
}

export function queryOf<T>(res: Response): T {
  return res.locals[KEY] as T;
}
