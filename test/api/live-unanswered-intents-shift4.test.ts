import { describeUnansweredIntents } from '../support/unanswered-intents-suite.ts';

describeUnansweredIntents('shift4');
