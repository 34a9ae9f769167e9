import { MESSAGES } from '@app/contracts';
import { Link } from '@app/router';
import { buttonStyles, Container } from '@app/ui';
import { useEffect } from 'react';

export function NotFound() {
  // Named like every other page ("<page> | <company>"), so the tab and screen readers say where one landed.
  useEffect(() => {
    document.title = `${MESSAGES.app.notFoundTitle} | ${MESSAGES.app.companyName}`;
  }, []);
  return (
    <Container>
      <h1>{MESSAGES.app.notFoundTitle}</h1>
      <p>{MESSAGES.app.notFoundText}</p>
      <Link to="/" css={buttonStyles('primary')}>
        Go to the home page
      </Link>
    </Container>
  );
}

/** Only mounted when config.features.crashTestRoute is on: proves the whole-app error screen works. */
export function CrashTestRoute(): never {
  throw new Error('Deliberate crash for testing the error screen');
}
