import { MESSAGES } from '@app/contracts';
import { Link } from '@app/router';
import { buttonStyles, Container, usePageTitle } from '@app/ui';

export function NotFound() {
  usePageTitle(MESSAGES.app.notFoundTitle);
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
