-- +goose Up
-- A run's input: JSON the program reads as the global `input` (NULL: none given). json, not
-- jsonb, so text holding U+0000 is kept (see 00004).
ALTER TABLE runs ADD COLUMN input json;

-- +goose Down
ALTER TABLE runs DROP COLUMN input;
