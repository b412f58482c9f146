import { buildModuleTestApp } from '../../../test/support/module-app';
import { notesModule } from '../notes-module';
import { describeNotesHttpCases } from './notes-http-cases';

describeNotesHttpCases('memory', async () => {
  const { app } = await buildModuleTestApp([notesModule]);
  return { app, close: async () => undefined };
});
