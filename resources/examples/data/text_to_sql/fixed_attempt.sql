SELECT name, email, city, signup_date
FROM customers
ORDER BY signup_date DESC, id DESC
LIMIT 5;
