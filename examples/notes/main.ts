import { startPortcullis } from 'portcullis';
import { notesModule } from './notes-module';

// `npm run example:notes`: the service as `npm start` runs it (same settings, Postgres or the
// embedded database), with the notes module after identity.
void startPortcullis([notesModule]);
