-- +goose Up
-- codemode_refuse(reason) raises an error (SQLSTATE CM001, message "codemode: <reason>"). A
-- statement calls it to abort its transaction when a condition its caller counted on does
-- not hold, so that the statements pipelined after it, up to a COMMIT sent with them, write
-- nothing; the caller then does the work the slower way (see RunFinishFenced).
-- +goose StatementBegin
CREATE FUNCTION codemode_refuse(reason text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'codemode: %', reason USING ERRCODE = 'CM001';
END
$$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION codemode_refuse(text);
