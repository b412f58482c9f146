import { createTestPortcullis } from 'portcullis/testing';
import { notesModule } from '../notes-module';
import { describeNotesHttpCases } from './notes-http-cases';

describeNotesHttpCases('memory', () => createTestPortcullis({ modules: [notesModule] }));
