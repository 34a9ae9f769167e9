import { API_PATHS } from '@app/contracts';
import { postInput, registration, surveyAnswers, type TestServer } from './helpers';

/** A moving clock for the limits: tests step it past a window instead of sleeping. */
export function testClock(start = 1_900_000_000_000) {
  const clock = {
    t: start,
    now: () => clock.t,
    advance(ms: number) {
      clock.t += ms;
    },
  };
  return clock;
}

let next = 0;
/** A fresh client address each call, so tests never share a counter. */
export const freshAddress = () => {
  next += 1;
  return `198.18.${Math.floor(next / 250)}.${(next % 250) + 1}`;
};

export const from = (address: string) => ({ 'x-forwarded-for': address });

export const assessment = (email: string) => surveyAnswers({ email });

/** A signed-in member made from its own address (the register and login limits count addresses). */
export async function member(s: TestServer, address = freshAddress()) {
  const body = registration();
  const reg = await s.req('POST', API_PATHS.register, { body, headers: from(address) });
  if (reg.status !== 201) throw new Error(`register: ${reg.status} ${JSON.stringify(reg.body)}`);
  const id = (await s.ctx.accounts.resolveUser(body.email))!.id;
  await s.ctx.accounts.activate(id);
  const login = await s.req('POST', API_PATHS.login, {
    body: { username: body.email, password: body.password },
    headers: from(address),
  });
  if (login.status !== 200) throw new Error(`login: ${login.status}`);
  return { id, token: login.body.token as string, address };
}

/** A published post of a fresh member, to comment on and like. */
export async function somePost(s: TestServer) {
  const author = await member(s);
  const r = await s.post(API_PATHS.posts, postInput(), author.token);
  return r.body.id as number;
}
