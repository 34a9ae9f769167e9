import type { RemoteAppProps } from '@app/federation';
import { registerReactCopy } from '@app/session';
import { Container } from '@app/ui';
import * as React from 'react';
import { Route, Routes } from 'react-router-dom';

registerReactCopy(React);

function Placeholder({ screen }: { screen: string }) {
  return (
    <Container>
      <h1>{screen}</h1>
    </Container>
  );
}

/** The remote's one exposed module: it renders its own routes (absolute paths, see the shell's route table). */
export default function App(_props: RemoteAppProps) {
  return (
    <Routes>
      <Route path="/login" element={<Placeholder screen="Login" />} />
      <Route path="/register" element={<Placeholder screen="Register" />} />
      <Route path="/profile" element={<Placeholder screen="Profile" />} />
    </Routes>
  );
}
