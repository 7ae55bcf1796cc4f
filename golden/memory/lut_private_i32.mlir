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
  %15, %16 = load_ptr_tko weak %14 token=%8 : tile<128xptr<i32>> -> tile<128xi32>, token
  %17 = addi %15, %7 : tile<128xi32>
  %18 = assume div_by<16>, %arg1 : tile<ptr<i32>>
  %19 = make_tensor_view %18, shape = [1024], strides = [1] : tensor_view<1024xi32, strides=[1]>
  %20 = make_partition_view %19 : partition_view<tile=(128), padding_value = zero, tensor_view<1024xi32, strides=[1]>>
  %21 = store_view_tko weak %17, %20[%1] token = %16 : tile<128xi32>, partition_view<tile=(128), padding_value = zero, tensor_view<1024xi32, strides=[1]>>, tile<i32> -> token
  return
}
