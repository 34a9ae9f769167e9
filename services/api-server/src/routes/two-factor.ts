import {
  API_PATHS,
  MESSAGES,
  TwoFactorCodeRequestSchema,
  TwoFactorDisableSchema,
  TwoFactorSetupRequestSchema,
} from '@app/contracts';
import type { Hono } from 'hono';
import { parseWith } from '../errors';
import { type Env, type RouteDeps, requireCaller } from './http-helpers';

/**
 * The profile's two-factor section and the step-up dialog (issue 46): every route is the signed-in
 * caller's own account. Wrong passwords and codes answer 400 (never 401, which would end the session).
 */
export function registerTwoFactorRoutes(app: Hono<Env>, { accounts, json }: RouteDeps) {
  const factor = accounts.twoFactor;

  app.get(API_PATHS.twoFactor, async (c) => c.json(await factor.status(requireCaller(c))));

  app.post(API_PATHS.twoFactorSetup, async (c) => {
    const who = requireCaller(c);
    return c.json(await factor.begin(who, parseWith(TwoFactorSetupRequestSchema, await json(c))));
  });

  app.post(API_PATHS.twoFactorConfirm, async (c) => {
    const who = requireCaller(c);
    const { code } = parseWith(TwoFactorCodeRequestSchema, await json(c));
    return c.json(await factor.confirm(who, code));
  });

  app.post(API_PATHS.twoFactorDisable, async (c) => {
    const who = requireCaller(c);
    await factor.disable(who, parseWith(TwoFactorDisableSchema, await json(c)));
    return c.json({ message: MESSAGES.twoFactor.disabled });
  });

  app.post(API_PATHS.twoFactorVerify, async (c) => {
    const who = requireCaller(c);
    const { code } = parseWith(TwoFactorCodeRequestSchema, await json(c));
    return c.json(await factor.verify(who, code));
  });
}
