-- Peer reviews record nothing of who wrote them (decision 0502, issue 28): those stored before lose their sender.
UPDATE "submissions" SET "submitted_by_id" = NULL, "client_ip" = NULL, "user_agent" = NULL WHERE "type" = 'peer-review';
