import { reactTestConfig } from '@app/vitest-config';

export default reactTestConfig();
