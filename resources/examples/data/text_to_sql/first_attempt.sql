SELECT name, email, city, signed_up
FROM customers
ORDER BY signed_up DESC
LIMIT 5;
