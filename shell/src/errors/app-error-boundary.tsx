import { Component, type ErrorInfo, type ReactNode } from 'react';
import { AppErrorScreen } from './app-error-screen';

/** The last line of defence: any rendering error the regions did not catch shows the whole-app screen. */
export class AppErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('Unexpected rendering error', error, info.componentStack);
  }

  override render() {
    return this.state.failed ? <AppErrorScreen /> : this.props.children;
  }
}
