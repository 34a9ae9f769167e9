import {
  API_PATHS,
  ChangePasswordSchema,
  EmailChangeTokenSchema,
  ForgotPasswordSchema,
  LoginRequestSchema,
  MESSAGES,
  PreferencesSchema,
  ProfileUpdateSchema,
  RegistrationPayloadSchema,
  ResetPasswordSchema,
} from '@app/contracts';
import type { Hono } from 'hono';
import { HttpError, parseWith } from '../errors';
import { deviceLabel } from '../services/device-label';
import { type C, type Env, type RouteDeps, requireCaller } from './http-helpers';

export function registerAccountRoutes(app: Hono<Env>, { accounts, json, clientAddress }: RouteDeps) {
  app.post(API_PATHS.register, async (c) => {
    const payload = parseWith(RegistrationPayloadSchema, await json(c));
    const { requires_activation } = await accounts.register(payload, { from: clientAddress(c) });
    const message = requires_activation
      ? 'Registration successful. An administrator must activate your account before you can log in.'
      : 'Registration successful. You can now log in.';
    return c.json({ message, requires_activation }, 201);
  });

  app.post(API_PATHS.login, async (c) => {
    const { username, password, code, device } = parseWith(LoginRequestSchema, await json(c));
    // Issue 46: failures count per account and per client address (services/login-throttle.ts).
    const attempt = {
      identifier: username,
      password,
      code,
      device,
      address: clientAddress(c),
      deviceLabel: deviceLabel(c.req.header('user-agent')),
    };
    return c.json(await accounts.login(attempt));
  });

  // Issue 34: the same 202 for every address, known or not (PasswordResets.request evens out the time).
  app.post(API_PATHS.forgotPassword, async (c) => {
    const { email } = parseWith(ForgotPasswordSchema, await json(c));
    await accounts.resets.request(email);
    return c.json({ message: MESSAGES.passwordReset.sent }, 202);
  });

  // Success sends the UI to Login with `message`: every session of the account has ended.
  app.post(API_PATHS.resetPassword, async (c) => {
    await accounts.resets.reset(parseWith(ResetPasswordSchema, await json(c)));
    return c.json({ message: MESSAGES.passwordReset.done });
  });

  app.post(API_PATHS.logout, async (c) => {
    await accounts.logout(requireCaller(c));
    return c.json({ message: 'Logged out' });
  });

  app.get(API_PATHS.profile, async (c) => c.json(await accounts.profile(requireCaller(c).userId)));
  app.put(API_PATHS.profile, async (c) => {
    const who = requireCaller(c);
    return c.json(await accounts.updateProfile(who.userId, parseWith(ProfileUpdateSchema, await json(c))));
  });

  app.get(API_PATHS.preferences, async (c) => c.json(await accounts.preferences(requireCaller(c).userId)));
  app.put(API_PATHS.preferences, async (c) => {
    const who = requireCaller(c);
    return c.json(await accounts.savePreferences(who.userId, parseWith(PreferencesSchema, await json(c))));
  });

  // Issue 46: an email change's links. Neither needs a session: the mail may be opened on another device.
  app.post(API_PATHS.confirmEmail, async (c) => {
    const { token } = parseWith(EmailChangeTokenSchema, await json(c));
    const email = await accounts.emailChanges.confirm(token);
    return c.json({ message: MESSAGES.emailChange.confirmed(email), email });
  });
  app.post(API_PATHS.undoEmailChange, async (c) => {
    const { token } = parseWith(EmailChangeTokenSchema, await json(c));
    const email = await accounts.emailChanges.undo(token);
    return c.json({ message: MESSAGES.emailChange.undone(email), email });
  });

  // Issue 46: a member sees where they are signed in and ends sessions (never by token or its hash).
  app.get(API_PATHS.sessions, async (c) => c.json(await accounts.sessions.list(requireCaller(c))));
  app.delete(API_PATHS.sessions, async (c) => {
    await accounts.sessions.endOthers(requireCaller(c));
    return c.json({ message: MESSAGES.sessions.endedOthers });
  });
  app.delete(`${API_PATHS.sessions}/:id`, async (c) => {
    const ended = await accounts.sessions.end(requireCaller(c), c.req.param('id') ?? '');
    if (!ended) throw new HttpError(404, MESSAGES.sessions.notFound);
    return c.json({ message: MESSAGES.sessions.ended });
  });

  const changePassword = async (c: C) => {
    const who = requireCaller(c);
    await accounts.changePassword(who, parseWith(ChangePasswordSchema, await json(c)));
    return c.json({ message: MESSAGES.profile.passwordUpdated });
  };
  app.put(API_PATHS.changePassword, changePassword);
  app.post(API_PATHS.changePassword, changePassword);

  const deleteAccount = async (c: C) => {
    await accounts.deleteAccount(requireCaller(c).userId);
    return c.json({ message: 'Account deleted' });
  };
  app.delete(API_PATHS.deleteAccount, deleteAccount);
  app.post(API_PATHS.deleteAccount, deleteAccount);
}
