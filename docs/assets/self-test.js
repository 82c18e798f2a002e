/* paperlens answer boxes and checklist (self-test page). */
