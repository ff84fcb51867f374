product.php
