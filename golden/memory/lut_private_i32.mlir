global private  constant @squares alignment = 16 <i32: [0, 1, 4, 9, 16, 25, 36, 49, 64, 81, 100, 121, 144, 169, 196, 225, 256, 289, 324, 361, 400, 441, 484, 529, 576, 625, 676, 729, 784, 841, 900, 961, 1024, 1089, 1156, 1225, 1296, 1369, 1444, 1521, 1600, 1681, 1764, 1849, 1936, 2025, 2116, 2209, 2304, 2401, 2500, 2601, 2704, 2809, 2916, 3025, 3136, 3249, 3364, 3481, 3600, 3721, 3844, 3969]> : tile<64xi32>
entry @lut_private_i32(%arg0: tile<ptr<i32>>, %arg1: tile<ptr<i32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<i32>>
  %5 = make_tensor_view %4, shape = [1024], strides = [1] : tensor_view<1024xi32, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(128), padding_value = zero, tensor_view<1024xi32, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<1024xi32, strides=[1]>>, tile<i32> -> tile<128xi32>, token
  %9 = get_global @squares : tile<ptr<i32>>
  %10 = reshape %9 : tile<ptr<i32>> -> tile<1xptr<i32>>
  %11 = broadcast %10 : tile<1xptr<i32>> -> tile<128xptr<i32>>
  %12 = constant <i32: 63> : tile<128xi32>
  %13 = andi %7, %12 : tile<128xi32>
  %14 = offset %11, %13 : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
  %15 = ptr_to_int %14 : tile<128xptr<i32>> -> tile<128xi64>
  %16 = ptr_to_int %9 : tile<ptr<i32>> -> tile<i64>
  %17 = reshape %16 : tile<i64> -> tile<1xi64>
  %18 = broadcast %17 : tile<1xi64> -> tile<128xi64>
  %19 = subi %15, %18 : tile<128xi64>
  %20 = constant <i64: 0> : tile<128xi64>
  %21 = cmpi greater_than_or_equal %19, %20, signed : tile<128xi64> -> tile<128xi1>
  %22 = constant <i64: 256> : tile<i64>
  %23 = constant <i64: 4> : tile<i64>
  %24 = subi %22, %23 : tile<i64>
  %25 = reshape %24 : tile<i64> -> tile<1xi64>
  %26 = broadcast %25 : tile<1xi64> -> tile<128xi64>
  %27 = cmpi less_than_or_equal %19, %26, signed : tile<128xi64> -> tile<128xi1>
  %28 = andi %21, %27 : tile<128xi1>
  assert %28, "kernel `lut_private_i32`: `load_ptr_tko`: a lane addresses memory outside @squares (at pointers.py:244)" : tile<128xi1>
  %29, %30 = load_ptr_tko weak %14 token=%8 : tile<128xptr<i32>> -> tile<128xi32>, token
  %31 = addi %29, %7 : tile<128xi32>
  %32 = assume div_by<16>, %arg1 : tile<ptr<i32>>
  %33 = make_tensor_view %32, shape = [1024], strides = [1] : tensor_view<1024xi32, strides=[1]>
  %34 = make_partition_view %33 : partition_view<tile=(128), padding_value = zero, tensor_view<1024xi32, strides=[1]>>
  %35 = store_view_tko weak %31, %34[%1] token = %30 : tile<128xi32>, partition_view<tile=(128), padding_value = zero, tensor_view<1024xi32, strides=[1]>>, tile<i32> -> token
  return
}
