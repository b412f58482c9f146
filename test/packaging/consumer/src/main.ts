import { startPortcullis } from 'portcullis';
import { shoutsModule } from './shouts-module';

// The team's one entry file: identity and the shouts module, started as `npm start` starts Portcullis.
void startPortcullis([shoutsModule]);
