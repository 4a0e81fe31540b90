-- PostgreSQL twin of ../005_draw_offers.sql: the same change in PostgreSQL's types (BIGINT, identity keys, DOUBLE PRECISION).
-- Draw offers: one open offer per match, tied to the position it was made in (a move lets it lapse).
ALTER TABLE matches ADD COLUMN draw_offer_ply BIGINT;        -- the ply the offer was made at; NULL = none
ALTER TABLE matches ADD COLUMN draw_accepted TEXT;            -- user ids who agree so far, joined by ','
