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
      <Route path="/" element={<Placeholder screen="Home" />} />
      <Route path="/about" element={<Placeholder screen="About" />} />
      <Route path="/contact" element={<Placeholder screen="Contact" />} />
      <Route path="/impressum" element={<Placeholder screen="Impressum" />} />
    </Routes>
  );
}
