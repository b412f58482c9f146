import type { ServiceCaller } from '../../../domain/service-key';
import type { NodeResponse } from '../fast-path/node-handler';

// res.locals is per request and untyped; these two functions are the only way in and out of it.
const KEY = 'serviceCaller';

export function setServiceCaller(res: NodeResponse, caller: ServiceCaller): void {
  res.locals[KEY] = caller;
}

/** The calling service. Throws (a 500) if a route that is not behind the service guard asks: a wiring bug. */
export function serviceCallerOf(res: NodeResponse): ServiceCaller {
  const caller = res.locals[KEY] as ServiceCaller | undefined;
  if (!caller) throw new Error('No service caller on this request: the route is not behind the service guard');
  return caller;
}
