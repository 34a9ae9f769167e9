import type { RemoteAppProps } from '@app/federation';
import { Route, Routes } from '@app/router';
import { registerReactCopy } from '@app/session';
import * as React from 'react';
import { AboutPage } from './features/about/components/about-page';
import { ContactPage } from './features/contact/components/contact-page';
import { HomePage } from './features/home/components/home-page';
import { ImpressumPage } from './features/impressum/components/impressum-page';

registerReactCopy(React);

/** The remote's one exposed module: it renders its own routes (absolute paths, see the shell's route table). */
export default function App(_props: RemoteAppProps) {
  return (
    <Routes>
      <Route path="/" element={<HomePage />} />
      <Route path="/about" element={<AboutPage />} />
      <Route path="/contact" element={<ContactPage />} />
      <Route path="/impressum" element={<ImpressumPage />} />
    </Routes>
  );
}
